import sys

from bot.slack import main

sys.exit(main())
