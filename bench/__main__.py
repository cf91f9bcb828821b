"""`make bench`: run every bench/bench_*.py module's main() and print figures."""

import importlib
import os
import pkgutil
import sys
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cribsite.settings")


def main(selected):
    import django
    from django.conf import settings

    django.setup()
    # As in production (and as Django's test runner does): no query log to keep.
    settings.DEBUG = False
    here = Path(__file__).parent
    names = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))
    for name in names:
        if selected and not any(s in name for s in selected):
            continue
        print(f"\n=== {name} ===", flush=True)
        importlib.import_module(f"bench.{name}").main()


if __name__ == "__main__":
    main(sys.argv[1:])
