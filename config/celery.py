"""The Celery application.

Configuration comes from Django settings under the CELERY_ prefix; tasks are
found in each installed app's `tasks` module and in CELERY_IMPORTS. Every
task retries while PostgreSQL or Redis is out of reach (config.task_retries).
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

app = Celery("pulka", task_cls="config.task_retries:RetryWhileUnreachable")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
