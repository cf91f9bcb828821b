"""`manage.py check --deploy` with the production environment of .env.example as a deployment
makes its .env: copied, with its own secrets in place of the examples (the checks refuse those),
failing on any warning. The database is left out: the check reaches none."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "DEBUG")}
for line in (root / ".env.example").read_text().splitlines():
    if line.strip() and not line.lstrip().startswith("#"):
        name, _, value = line.partition("=")
        env[name.strip()] = value.strip()
env.pop("DATABASE_URL", None)
env["SECRET_KEY"] = secrets.token_urlsafe(50)
env["ANYMAIL_WEBHOOK_SECRET"] = f"{secrets.token_hex(8)}:{secrets.token_hex(16)}"
sys.exit(
    subprocess.call([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], cwd=root, env=env)
)
