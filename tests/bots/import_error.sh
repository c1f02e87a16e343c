#!/bin/sh
# import_error.sh: a Python bot whose library is missing, as its author
# sees it: a traceback on stderr and exit 1, before any handshake.
printf 'Traceback (most recent call last):\n  File "bot.py", line 3, in <module>\n    import rlcard\nModuleNotFoundError: No module named %s\n' "'rlcard'" >&2
exit 1
