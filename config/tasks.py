"""Project-wide Celery tasks."""

from celery import shared_task


@shared_task(name="config.tasks.ping")
def ping() -> str:
    """Answer "pong": proves that a worker is consuming from the broker."""
    return "pong"
