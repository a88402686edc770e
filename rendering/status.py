"""The status card (players, companies, bank, trains, phase) as a picture and as chat text."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image

from engine.core.views import CompanyStatus, CorporationStatus, PlayerStatus, StatusView
from rendering import theme
from rendering.canvas import Canvas

__all__ = ["company_lines", "corporation_lines", "render_status", "status_text"]

_WIDTH = 1280.0
_MARGIN = 24.0
_ROW = 32.0
_HEAD_ROW = 28.0
_SECTION_GAP = 18.0
_ACTING_BG = "#fff3c4"
_STRIPE = "#f6f4ee"
_RULE = "#d6d1c4"
_ALERT = "#b3261e"
_OVER_BG = "#fde7e4"
_GOOD = "#1e6b2c"


def _money(cur: str, n: int | None) -> str:
    if n is None:
        return "–"
    return f"-{cur}{-n:,}" if n < 0 else f"{cur}{n:,}"


def _bank(cur: str, cash: int) -> str:
    # 18xx.games keeps paying out of a broken bank, so its cash goes below zero; say what that means.
    return f"Bank broken ({_money(cur, cash)})" if cash < 0 else f"Bank {_money(cur, cash)}"


def _currency(view: StatusView) -> str:
    """The money sign of the view's own format ("$%d", "£%d")."""
    return theme.currency_sign(view.currency)


# 1828 has no certificate limit; its data stores the limit as this many (more than a player can ever hold).
NO_CERT_LIMIT = 99


def _holder(comp: CompanyStatus) -> str:
    if comp.closed:
        return "closed"
    if comp.in_stack:
        return "in the stack (not yet in a bid box)"
    where = "in a bid box" if comp.bid_box else "for sale"
    if comp.high_bid is not None:
        return f"{where}, high bid {comp.high_bidder} {{cur}}{comp.high_bid:,}"
    if comp.bid_box:
        return "in a bid box, no bid yet"
    return f"owned by {comp.owner}" if comp.owner else "for sale"


def _waiting_for_box(view: StatusView) -> list[CompanyStatus]:
    """Companies the bank holds back until a bid box frees up (1822): listed by symbol only, they are many."""
    if not any(comp.bid_box for comp in view.companies):
        return []
    return [comp for comp in view.companies
            if not comp.closed and not comp.bid_box and comp.owner is None and comp.high_bid is None]


def _not_started(view: StatusView) -> list[CorporationStatus]:
    return [c for c in view.corporations if not c.floated and c.share_price is None]


def company_lines(view: StatusView, *, details: bool = True) -> list[str]:
    """Private companies, one line each (with its ability text when ``details``)."""
    cur = _currency(view)
    out = []
    later = [] if details else _waiting_for_box(view)
    for comp in view.companies:
        if (comp.closed and not details) or comp in later:
            continue
        head = (
            f"  {comp.sym} {comp.name}: value {_money(cur, comp.value)}, revenue {_money(cur, comp.revenue)}, "
            + _holder(comp).replace("{cur}", cur)
        )
        out.append(head)
        if details and comp.description and not comp.closed:
            out.append(f"      {comp.description}")
    if later:
        out.append(f"  waiting for a bid box: {', '.join(comp.sym for comp in later)}")
    return out


def _in_bids(cur: str, p: PlayerStatus) -> str:
    """The part of a player's cash that standing bids hold back (1822), or nothing."""
    return f" ({_money(cur, p.in_bids)} in bids)" if p.in_bids else ""


def _certs(p: PlayerStatus, unlimited: str) -> str:
    """Certificates held against the limit; a title without a limit (1828) stores it as NO_CERT_LIMIT."""
    if p.certificate_limit >= NO_CERT_LIMIT:
        return f"{p.certificates:>2} ({unlimited})"
    return f"{p.certificates:>2}/{p.certificate_limit}"


def corporation_lines(view: StatusView, *, minors: bool | None = None) -> list[str]:
    """Each public company's card in words: price, president, cash, trains, stations and shares.

    ``minors`` keeps only the minors (True) or only the others (False); None keeps all.
    """
    cur = _currency(view)
    out = []
    for c in view.corporations:
        if minors is not None and (c.kind == "minor") != minors:
            continue
        if c.share_price is None and not c.floated:
            out.append(f"  {c.sym} {c.name}: not started; {c.tokens_total} stations")
            continue
        placed = f" at {', '.join(c.token_hexes)}" if c.token_hexes else ""
        prices = sorted(set(c.token_prices))
        left = f", next costs {_money(cur, prices[0])}" if prices else ""
        out.append(
            f"  {c.sym} {c.name}: price {_money(cur, c.share_price)}, president {c.president or '–'}, "
            f"cash {_money(cur, c.treasury)}, trains {_trains(c.trains)}, "
            f"stations {c.tokens_total - c.tokens_left} placed{placed} and {c.tokens_left} left{left}, "
            f"IPO {c.ipo_percent}%, pool {c.pool_percent}%" + ("" if c.floated else ", not floated yet")
            + (f", owns {', '.join(c.privates)}" if c.privates else "")
            + (f"; {extra}" if (extra := _extras(cur, c).strip()) else "")
        )
    return out


def _extras(cur: str, c: CorporationStatus) -> str:
    """What only some titles have: a system's two shells (1828), loans, debt (1862), a kind other than major."""
    parts = []
    if c.kind not in ("major", ""):
        parts.append(c.kind)
    if c.shells:
        parts.append("shells " + " / ".join(f"{name}: {_trains(trains)}" for name, trains in c.shells))
    if c.loans:
        parts.append(f"loans {c.loans}")
    if c.markers:
        parts.append(", ".join(c.markers))
    if c.debt:
        parts.append(f"debt {_money(cur, c.debt)}")
    return ("  " + "; ".join(parts)) if parts else ""


def _trains(trains: Sequence[str]) -> str:
    return ", ".join(trains) if trains else "none"


def _train_stock(cur: str, view: StatusView) -> str:
    parts = []
    for t in view.trains_available:
        count = "∞" if t.remaining is None else f"×{t.remaining}"
        parts.append(f"{t.name} {count} {_money(cur, t.price)}")
    return " · ".join(parts) if parts else "none"


# ----------------------------------------------------------------------------- text


def status_text(view: StatusView) -> str:
    """A plain-text status summary for chat, aligned for a monospace block.

    >>> from engine.core.views import StatusView
    >>> view = StatusView("1882", "Stock Round 1", "2", ("yellow tiles",), 9000, (), (), (), (), ())
    >>> print(status_text(view))
    1882 · Stock Round 1 · Phase 2 · Bank $9,000
    <BLANKLINE>
    Trains: none
    Phase 2: yellow tiles
    """
    cur = _currency(view)
    bank = "Bank: unlimited" if view.bank_unlimited else _bank(cur, view.bank_cash)
    lines = [f"{view.title} · {view.round_name} · Phase {view.phase} · {bank}"]
    if view.finished:
        lines.append(f"Game over{': ' + view.game_end_reason if view.game_end_reason else ''}")
    elif view.acting:
        lines.append(f"Waiting for: {', '.join(view.acting)}")
    presidents = {c.sym: c.president for c in view.corporations}
    if view.players:
        lines += ["", "Players"]
        name_w = max(len(p.name) for p in view.players)
        for p in view.players:
            mark = ">" if p.acting else " "
            pd = " (priority)" if p.priority else ""
            shares = ", ".join(
                f"{s} {pct}%{'*' if presidents.get(s) == p.name else ''}" for s, pct in p.shares
            )
            privates = f" | {', '.join(p.privates)}" if p.privates else ""
            privates += f" | debt {_money(cur, p.debt)}" if p.debt else ""
            lines.append(
                f"{mark} {p.name:<{name_w}}  {_money(cur, p.cash):>8}{_in_bids(cur, p)}"
                f"  certs {_certs(p, 'no certificate limit')}"
                f"  worth {_money(cur, p.value):>8}  {shares or 'no shares'}{privates}{pd}"
            )
    if view.corporations:
        lines += ["", "Companies"]
        idle = _not_started(view)
        sym_w = max(len(c.sym) for c in view.corporations)
        for c in view.corporations:
            if c in idle:
                continue
            price = _money(cur, c.share_price)
            state = "" if c.floated else " (not floated)"
            where = f" ({' '.join(c.token_hexes)})" if c.token_hexes else ""
            lines.append(
                f"  {c.sym:<{sym_w}}  {price:>6}  treasury {_money(cur, c.treasury):>7}"
                f"  trains {_trains(c.trains)}  tokens {c.tokens_left}/{c.tokens_total}{where}"
                f"  IPO {c.ipo_percent}% pool {c.pool_percent}%"
                f"  last {_money(cur, c.last_revenue)}"
                f"  pres. {c.president or '–'}{state}{_extras(cur, c)}"
            )
        if idle:
            lines.append(f"  not started: {', '.join(c.sym for c in idle)}")
    private_lines = company_lines(view, details=False)
    if private_lines:
        lines += ["", "Private companies", *private_lines]
    lines += ["", f"Trains: {_train_stock(cur, view)}"]
    if view.pool_trains:
        lines.append(f"Bank pool: {', '.join(view.pool_trains)}")
    notes = "; ".join(view.phase_notes)
    lines.append(f"Phase {view.phase}{': ' + notes if notes else ''}")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- picture

_TEXT = theme.FONT_TEXT + 1  # table text
_CHIP = theme.FONT_TEXT  # share and train chips (condensed bold)
_CHIP_H = 22.0
_CHIP_LINE = 26.0  # one line of share chips
_CHIP_GAP = 6.0


@dataclass(frozen=True, slots=True)
class _Col:
    title: str
    width: float
    align: str = "l"  # l, r, c


@dataclass(frozen=True, slots=True)
class _Chip:
    label: str
    width: float
    fill: str
    fg: str
    president: bool


def _share_chips(
    c: Canvas, shares: Sequence[tuple[str, int]], colours: dict[str, tuple[str, str]],
    presidents: dict[str, str | None], me: str,
) -> list[_Chip]:
    out = []
    for sym, pct in shares:
        fill, fg = colours.get(sym, ("#888888", "#ffffff"))
        pres = presidents.get(sym) == me
        label = f"★{sym} {pct}%" if pres else f"{sym} {pct}%"
        width = c.text_width(label, size=_CHIP, condensed=True) + 14
        out.append(_Chip(label, width, fill, fg or theme.readable_on(fill), pres))
    return out


def _chip_lines(chips: Sequence[_Chip], width: float) -> list[list[_Chip]]:
    """Chips flowed into lines of at most ``width``: a player with many companies gets a taller row
    rather than a cut-off list."""
    lines: list[list[_Chip]] = [[]]
    used = 0.0
    for chip in chips:
        if lines[-1] and used + chip.width > width:
            lines.append([])
            used = 0.0
        lines[-1].append(chip)
        used += chip.width + _CHIP_GAP
    return lines


def render_status(view: StatusView) -> Image.Image:
    """Draw the status card: who is acting, players, companies, bank, trains and phase.

    Returns:
        An RGB image 1280 px wide; its height grows with the number of players and companies, and
        a player row grows a line when its share certificates do not fit one.
    """
    cur = _currency(view)
    colours = {corp.sym: (corp.colour, corp.text_colour) for corp in view.corporations}
    presidents = {corp.sym: corp.president for corp in view.corporations}
    measure = Canvas(1, 1)

    # Players: the privates column is only as wide as its longest entry, the shares get the rest.
    privates_w = max([90.0, *(measure.text_width(", ".join(p.privates), size=_TEXT) + 24 for p in view.players)])
    privates_w = min(privates_w, 220.0)
    fixed = 26 + 170 + 100 + 18 + privates_w + 80 + 120
    shares_w = _WIDTH - 2 * _MARGIN - fixed
    pcols = [
        _Col("", 26), _Col("Player", 170), _Col("Cash", 100, "r"), _Col("", 18), _Col("Shares", shares_w),
        _Col("Privates", privates_w), _Col("Certs", 80, "r"), _Col("Value", 120, "r"),
    ]
    chips = {p.id: _chip_lines(_share_chips(measure, p.shares, colours, presidents, p.name), shares_w - 16)
             for p in view.players}
    row_h = {pid: _ROW + (len(lines) - 1) * _CHIP_LINE for pid, lines in chips.items()}

    # Companies not started yet and those waiting for a bid box (1822 has dozens) are one wrapped line each;
    # minors get a table of their own.
    idle = _not_started(view)
    active = [corp for corp in view.corporations if corp not in idle]
    majors = [corp for corp in active if corp.kind != "minor"]
    minors = [corp for corp in active if corp.kind == "minor"]
    later = _waiting_for_box(view)
    boxed = [comp for comp in view.companies if comp.bid_box and not comp.closed]
    held = [comp for comp in view.companies if not comp.closed and not comp.bid_box and comp not in later]
    idle_lines = _wrap(measure, [corp.sym for corp in idle], _WIDTH - 2 * _MARGIN - 140)
    later_lines = _wrap(measure, [comp.sym for comp in later], _WIDTH - 2 * _MARGIN - 140)
    height = (
        60 + 40  # header + acting line
        + 26 + _HEAD_ROW + (sum(row_h.values()) if view.players else _ROW) + _SECTION_GAP
        + 26 + _HEAD_ROW + max(1, len(majors)) * _ROW + len(idle_lines) * 26 + _SECTION_GAP
        + 26 + 3 * 26 + _MARGIN
    )
    if minors:
        height += 26 + _HEAD_ROW + len(minors) * _ROW + _SECTION_GAP
    if boxed:
        height += 26 + _HEAD_ROW + len(boxed) * _ROW + len(later_lines) * 26 + _SECTION_GAP
    if held:
        height += 26 + _HEAD_ROW + len(held) * _ROW + _SECTION_GAP
    c = Canvas(_WIDTH, height)

    # Header.
    c.rect((0, 0, _WIDTH, 52), fill=theme.PANEL)
    c.text((_MARGIN, 26), view.title, size=22, bold=True, anchor="lm")
    bank = "Bank: unlimited" if view.bank_unlimited else _bank(cur, view.bank_cash)
    right = f"{view.round_name}   ·   Phase {view.phase}   ·   {bank}"
    c.text((_WIDTH - _MARGIN, 26), right, size=_TEXT, anchor="rm")
    y = 60.0
    if view.finished:
        msg = "Game over" + (f": {view.game_end_reason}" if view.game_end_reason else "")
        c.rect((_MARGIN - 6, y + 1, _WIDTH - _MARGIN + 6, y + 29), fill=_OVER_BG, radius=5)
        c.text((_MARGIN, y + 15), msg, size=_TEXT, bold=True, fill=_ALERT, anchor="lm")
        if view.players:
            best = max(view.players, key=lambda p: p.value)
            c.text((_WIDTH - _MARGIN, y + 15), f"Winner: {best.name} ({_money(cur, best.value)})", size=_TEXT,
                   bold=True, anchor="rm")
    elif view.acting:
        c.rect((_MARGIN - 6, y + 1, _WIDTH - _MARGIN + 6, y + 29), fill=_ACTING_BG, radius=5)
        c.text((_MARGIN, y + 15), "Waiting for:", size=_TEXT, fill=theme.MUTED, anchor="lm")
        c.text((_MARGIN + c.text_width("Waiting for: ", size=_TEXT), y + 15), ", ".join(view.acting), size=_TEXT,
               bold=True, anchor="lm")
    y += 40

    # Players.
    key = "★ president   ·   PD priority deal   ·   ▶ to act"
    c.text((_WIDTH - _MARGIN, y + 12), key, size=theme.FONT_TEXT - 1, fill=theme.MUTED, anchor="rm")
    y = _section_title(c, y, "Players")
    y = _table_head(c, y, pcols)

    def player_cells(p: PlayerStatus) -> list[_Painter]:
        marker = "▶" if p.acting else ""
        name = p.name + (" (PD)" if p.priority else "")
        # A debt (1862) and money in bids (1822) are shown with the privates, whose column is mostly empty by then.
        held = ", ".join([*([f"debt {_money(cur, p.debt)}"] if p.debt else []),
                          *([f"{_money(cur, p.in_bids)} in bids"] if p.in_bids else []), *p.privates])
        over = p.certificates > p.certificate_limit
        return [
            _txt(marker, bold=True, colour=_ALERT),
            _txt(name, bold=p.acting, clip=True),
            _txt(_money(cur, p.cash)),
            _txt(""),
            _chips(chips[p.id]),
            _txt(held or "–", colour=_ALERT if p.debt else theme.INK if p.privates else theme.MUTED, clip=True),
            _txt(_certs(p, "no limit"), colour=_ALERT if over else theme.INK, bold=over),
            _txt(_money(cur, p.value), bold=True),
        ]

    for i, p in enumerate(view.players):
        bg = _ACTING_BG if p.acting else (_STRIPE if i % 2 else None)
        y = _table_row(c, y, pcols, player_cells(p), bg, row_h[p.id])
    if not view.players:
        y = _table_row(c, y, pcols, [_txt(""), _txt("no players", colour=theme.MUTED)], None)
    y += _SECTION_GAP

    # Companies.
    y = _section_title(c, y, "Companies")
    wide = 40 if any(corp.shells for corp in view.corporations) else 0  # a system's trains come shell by shell
    ccols = [
        _Col("", 70), _Col("Name", 290 - wide), _Col("President", 130), _Col("Price", 70, "r"),
        _Col("Treasury", 100, "r"), _Col("", 16), _Col("Trains", 150 + wide), _Col("Tokens", 70, "c"),
        _Col("IPO/pool", 100, "c"), _Col("Last run", 90, "r"), _Col("", 14), _Col("", 110),
    ]
    y = _table_head(c, y, ccols)

    operating = view.round_name.startswith("Operating")

    def corp_cells(corp: CorporationStatus) -> list[_Painter]:
        state = _corp_state(corp, operating)
        notes = [*corp.markers, *([f"{corp.loans} loans"] if corp.loans else [])]
        name = corp.name + (f" ({', '.join(notes)})" if notes else "")
        return [
            _swatch(corp),
            # A debt (1862) comes first: a long name may be cut short, the debt is not.
            _txt((f"debt {_money(cur, corp.debt)} · " if corp.debt else "") + name, clip=True),
            _txt(corp.president or "–", colour=theme.INK if corp.president else theme.MUTED, clip=True),
            _txt(_money(cur, corp.share_price), bold=True),
            _txt(_money(cur, corp.treasury)),
            _txt(""),
            _shell_chips(corp.shells) if corp.shells else _train_chips(corp.trains),
            _txt(f"{corp.tokens_left}/{corp.tokens_total}"),
            _txt(f"{corp.ipo_percent}% / {corp.pool_percent}%"),
            _txt(_money(cur, corp.last_revenue)),
            _txt(""),
            _txt(state, colour=_GOOD if state == "to operate" else theme.MUTED, bold=state == "to operate"),
        ]

    for i, corp in enumerate(majors):
        y = _table_row(c, y, ccols, corp_cells(corp), _STRIPE if i % 2 else None)
    if not majors:
        y = _table_row(c, y, ccols, [_txt(""), _txt("no companies started", colour=theme.MUTED)], None)
    for i, text in enumerate(idle_lines):
        y = _key_value(c, y, "Not started" if i == 0 else "", text, muted=True)
    y += _SECTION_GAP

    if minors:
        y = _section_title(c, y, "Minor companies")
        y = _table_head(c, y, ccols)
        for i, corp in enumerate(minors):
            y = _table_row(c, y, ccols, corp_cells(corp), _STRIPE if i % 2 else None)
        y += _SECTION_GAP

    kcols = [_Col("", 70), _Col("Name", 330), _Col("Value", 90, "r"), _Col("Revenue", 100, "r"), _Col("", 24),
             _Col("Held by", 600)]
    if boxed:
        y = _section_title(c, y, "Bid boxes")
        y = _table_head(c, y, [*kcols[:-1], _Col("Current bid", 600)])
        for i, comp in enumerate(boxed):
            bid = (f"{comp.high_bidder} {_money(cur, comp.high_bid)}" if comp.high_bid is not None
                   else "no bid yet")
            cells = [_txt(comp.sym, bold=True), _txt(comp.name, clip=True), _txt(_money(cur, comp.value)),
                     _txt(_money(cur, comp.revenue)), _txt(""),
                     _txt(bid, bold=comp.high_bid is not None,
                          colour=theme.INK if comp.high_bid is not None else theme.MUTED, clip=True)]
            y = _table_row(c, y, kcols, cells, _STRIPE if i % 2 else None)
        for i, text in enumerate(later_lines):
            y = _key_value(c, y, "Still to come" if i == 0 else "", text, muted=True)
        y += _SECTION_GAP
    if held:
        y = _section_title(c, y, "Private companies")
        y = _table_head(c, y, kcols)
        for i, comp in enumerate(held):
            cells = [_txt(comp.sym, bold=True), _txt(comp.name, clip=True), _txt(_money(cur, comp.value)),
                     _txt(_money(cur, comp.revenue)), _txt(""), _txt(_holder(comp).replace("{cur}", cur), clip=True)]
            y = _table_row(c, y, kcols, cells, _STRIPE if i % 2 else None)
        y += _SECTION_GAP

    # Trains and phase.
    y = _section_title(c, y, "Trains and phase")
    y = _key_value(c, y, "Available", _train_stock(cur, view))
    y = _key_value(c, y, "Bank pool", ", ".join(view.pool_trains) or "–")
    y = _key_value(c, y, f"Phase {view.phase}", " · ".join(view.phase_notes) or "–")
    return c.finish()


def _corp_state(corp: CorporationStatus, operating_round: bool) -> str:
    if not corp.floated:
        return "parred" if corp.share_price is not None else "not started"
    if not operating_round:  # nobody is about to operate in a stock round
        return "floated"
    return "operated" if corp.operated else "to operate"


_Painter = Callable[[Canvas, float, float, float, str], None]  # canvas, x, y (middle), width, align


def _txt(s: str, *, bold: bool = False, colour: str = theme.INK, clip: bool = False) -> _Painter:
    def paint(c: Canvas, x: float, y: float, w: float, align: str) -> None:
        text, size = s, float(_TEXT)
        if clip:
            # A slightly smaller font before cutting the text short.
            while size > _TEXT - 3 and c.text_width(text, size=size, bold=bold) > w - 8:
                size -= 1
            if c.text_width(text, size=size, bold=bold) > w - 8:
                while len(text) > 1 and c.text_width(text + "…", size=size, bold=bold) > w - 8:
                    text = text[:-1]
                text = text.rstrip() + "…"
        ax = {"l": x, "r": x + w - 6, "c": x + w / 2}[align]
        anchor = {"l": "lm", "r": "rm", "c": "mm"}[align]
        c.text((ax, y), text, size=size, bold=bold, fill=colour, anchor=anchor)

    return paint


def _chips(lines: Sequence[Sequence[_Chip]]) -> _Painter:
    def paint(c: Canvas, x: float, y: float, w: float, align: str) -> None:
        if not any(lines):
            c.text((x, y), "–", size=_TEXT, fill=theme.MUTED, anchor="lm")
            return
        top = y - (len(lines) - 1) * _CHIP_LINE / 2
        for i, line in enumerate(lines):
            cy = top + i * _CHIP_LINE
            cx = x
            for chip in line:
                edge = "#000000" if chip.president else theme.mix(chip.fill, "#000000", 0.3)
                c.rect((cx, cy - _CHIP_H / 2, cx + chip.width, cy + _CHIP_H / 2), fill=chip.fill, outline=edge,
                       width=2.2 if chip.president else 1, radius=5)
                c.text((cx + chip.width / 2, cy), chip.label, size=_CHIP, condensed=True, fill=chip.fg)
                cx += chip.width + _CHIP_GAP

    return paint


def _train_chips(trains: Sequence[str]) -> _Painter:
    def paint(c: Canvas, x: float, y: float, w: float, align: str) -> None:
        if not trains:
            c.text((x, y), "none", size=_TEXT, fill=theme.MUTED, anchor="lm")
            return
        cx = x
        for t in trains:
            tw = max(20.0, c.text_width(t, size=_CHIP, condensed=True) + 10)
            c.rect((cx, y - _CHIP_H / 2, cx + tw, y + _CHIP_H / 2), fill="#ffffff", outline=theme.INK, width=1.2,
                   radius=3)
            c.text((cx + tw / 2, y), t, size=_CHIP, condensed=True)
            cx += tw + 5

    return paint


def _swatch(corp: CorporationStatus) -> _Painter:
    def paint(c: Canvas, x: float, y: float, w: float, align: str) -> None:
        fg = corp.text_colour or theme.readable_on(corp.colour)
        c.rect((x, y - 12, x + w - 10, y + 12), fill=corp.colour, outline=theme.mix(corp.colour, "#000", 0.4),
               width=1, radius=12)
        size = float(_CHIP)
        while size > 9 and c.text_width(corp.sym, size=size, condensed=True) > w - 20:
            size -= 1
        c.text((x + (w - 10) / 2, y), corp.sym, size=size, condensed=True, fill=fg)

    return paint


def _section_title(c: Canvas, y: float, title: str) -> float:
    c.text((_MARGIN, y + 12), title, size=18, bold=True, anchor="lm")
    return y + 26


def _table_head(c: Canvas, y: float, cols: Sequence[_Col]) -> float:
    x = _MARGIN
    for col in cols:
        _txt(col.title, colour=theme.MUTED)(c, x, y + _HEAD_ROW / 2, col.width, col.align)
        x += col.width
    c.line([(_MARGIN - 6, y + _HEAD_ROW - 1), (_WIDTH - _MARGIN + 6, y + _HEAD_ROW - 1)], _RULE, 1.2)
    return y + _HEAD_ROW


def _table_row(
    c: Canvas, y: float, cols: Sequence[_Col], cells: Sequence[_Painter], bg: str | None, height: float = _ROW
) -> float:
    if bg is not None:
        c.rect((_MARGIN - 6, y + 1, _WIDTH - _MARGIN + 6, y + height - 1), fill=bg, radius=4)
    x = _MARGIN
    for col, cell in zip(cols, cells, strict=False):
        cell(c, x, y + height / 2, col.width, col.align)
        x += col.width
    return y + height


def _key_value(c: Canvas, y: float, key: str, value: str, *, muted: bool = False) -> float:
    c.text((_MARGIN, y + 13), key, size=_TEXT, bold=True, anchor="lm")
    c.text((_MARGIN + 140, y + 13), value, size=_TEXT, anchor="lm", fill=theme.MUTED if muted else theme.INK)
    return y + 26


def _wrap(c: Canvas, words: Sequence[str], width: float) -> list[str]:
    """``words`` joined by commas into lines no wider than ``width``."""
    lines: list[str] = []
    for word in words:
        if lines and c.text_width(lines[-1] + ", " + word, size=_TEXT) <= width:
            lines[-1] += ", " + word
        else:
            lines.append(word)
    return lines


def _shell_chips(shells: Sequence[tuple[str, Sequence[str]]]) -> _Painter:
    """A system's trains shell by shell (1828): each shell's company, then its train chips."""
    def paint(c: Canvas, x: float, y: float, w: float, align: str) -> None:
        cx = x
        for name, trains in shells:
            c.text((cx, y), name, size=_CHIP - 2, condensed=True, fill=theme.MUTED, anchor="lm")
            cx += c.text_width(name, size=_CHIP - 2, condensed=True) + 4
            for t in trains or ("–",):
                tw = max(20.0, c.text_width(t, size=_CHIP, condensed=True) + 10)
                c.rect((cx, y - _CHIP_H / 2, cx + tw, y + _CHIP_H / 2), fill="#ffffff", outline=theme.INK,
                       width=1.2, radius=3)
                c.text((cx + tw / 2, y), t, size=_CHIP, condensed=True)
                cx += tw + 4
            cx += 8

    return paint
