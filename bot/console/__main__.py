import sys

from bot.console.app import main

sys.exit(main())
