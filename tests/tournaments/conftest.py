import pytest


@pytest.fixture(autouse=True)
def quick_bots(settings):
    """Bots fill seats at tables of four; a light bot keeps the suite fast."""
    settings.PULKA_PRACTICE_BOT_SECONDS = 0.005
