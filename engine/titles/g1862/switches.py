"""The spec's configuration switches (§14.2), each the alternative to its default, as optional rules."""

RMC_REVENUE_20 = "rmc_revenue_20"
NO_BONUS_HEXES = "no_bonus_hexes"
NYH_PAR_LOCKED = "nyh_par_locked"
GROUP2_AFTER_FLOATS = "group2_after_group1_floats"
PRIVATES_CLOSE_ON_5 = "privates_close_on_first_5"
FORCED_PURCHASE_ALWAYS = "forced_purchase_always"
PRICE_ZERO_MARKERS_REMOVED = "price_zero_markers_removed"
SWITCHES = (RMC_REVENUE_20, NO_BONUS_HEXES, NYH_PAR_LOCKED, GROUP2_AFTER_FLOATS, PRIVATES_CLOSE_ON_5,
            FORCED_PURCHASE_ALWAYS, PRICE_ZERO_MARKERS_REMOVED)
