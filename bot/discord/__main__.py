import sys

from bot.discord.app import main

sys.exit(main())
