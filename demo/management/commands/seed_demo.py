"""Create the demo data that a fresh local install starts with."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from demo.games import DEMO_PLAYERS, create_demo_data
from demo.social import create_demo_friends
from demo.tournaments import create_demo_tournaments

DEMO_ADMIN_USERNAME = "admin"
DEMO_ADMIN_PASSWORD = "admin"


class Command(BaseCommand):
    help = (
        "Create a demo superuser (admin/admin), demo players, open tables, "
        "finished games, tournaments and friends. Safe to run again."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--force",
            action="store_true",
            help="Run even when DEBUG is off (never on a public server).",
        )

    def handle(self, *args, force: bool = False, **options):
        if not settings.DEBUG and not force:
            raise CommandError(
                "seed_demo creates a superuser with a known password; it only "
                "runs with DEBUG on (or with --force)."
            )
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username=DEMO_ADMIN_USERNAME,
            defaults={"is_staff": True, "is_superuser": True},
        )
        if created:
            user.set_password(DEMO_ADMIN_PASSWORD)
            user.save(update_fields=["password"])
            self.stdout.write(
                self.style.SUCCESS(
                    f"Created demo admin: username {DEMO_ADMIN_USERNAME!r}, "
                    f"password {DEMO_ADMIN_PASSWORD!r}"
                )
            )
        else:
            self.stdout.write(
                f"Demo admin {DEMO_ADMIN_USERNAME!r} already exists (password "
                f"{DEMO_ADMIN_PASSWORD!r} unless it was changed)."
            )
        made = create_demo_data()
        players = list(
            User.objects.filter(username__in=[name for name, _ in DEMO_PLAYERS])
        )
        made += create_demo_tournaments(players)
        made += create_demo_friends(players)
        for line in made:
            self.stdout.write(self.style.SUCCESS(f"Created demo {line}"))
