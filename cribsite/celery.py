import os

from celery import Celery, signals
from django import db

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cribsite.settings")

app = Celery("cribsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.task_postrun.connect
def close_old_connections(sender=None, **kwargs):
    """After a task, as after a request: a database connection older than CONN_MAX_AGE, or one
    that failed, is closed (Celery's fixup keeps them for CELERY_DB_REUSE_MAX tasks); an eager
    task runs inside its caller's work, whose connection is not the task's to close."""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    db.close_old_connections()
