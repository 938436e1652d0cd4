from django.conf import settings
from django.core.management.base import BaseCommand

from tournament.text.catalogs import compile_catalogs


class Command(BaseCommand):
    help = "Compile locale/*/LC_MESSAGES/*.po into .mo files (pure Python: no GNU gettext needed)."

    def handle(self, *args, **options):
        for path in compile_catalogs(settings.BASE_DIR):
            self.stdout.write(f"compiled {path.relative_to(settings.BASE_DIR)}")
