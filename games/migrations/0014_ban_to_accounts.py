"""Bans moved to the accounts (accounts 0004 renamed the table)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_game_presence"),
        ("accounts", "0004_ban_from_games"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Ban")],
            database_operations=[],
        ),
    ]
