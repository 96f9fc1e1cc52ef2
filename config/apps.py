"""The admin app, with the site's own admin site (``config.admin.SiteAdmin``)."""

from django.contrib.admin.apps import AdminConfig

from common.text_filters import use_sentence_start_for_capfirst


class SiteAdminConfig(AdminConfig):
    default_site = "config.admin.SiteAdmin"

    def ready(self):
        super().ready()
        # Georgian is never capitalised: see common.text_filters.
        use_sentence_start_for_capfirst()
