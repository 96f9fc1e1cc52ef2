"""The admin app, with the site's own admin site (``config.admin.SiteAdmin``)."""

from django.contrib.admin.apps import AdminConfig

from common.text_filters import use_sentence_start_for_capfirst
from config.connections import reconnect_steadily


class SiteAdminConfig(AdminConfig):
    default_site = "config.admin.SiteAdmin"

    def ready(self):
        super().ready()
        # Georgian is never capitalised: see common.text_filters.
        use_sentence_start_for_capfirst()
        # After a failover, every pool finds the new primary within half a
        # second of its promotion (config.connections).
        reconnect_steadily()
