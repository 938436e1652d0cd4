# English dates as the app has always written them (21 November 2026), not Django's US default.
# Japanese and Danish use Django's own formats (2026年11月21日, 21. november 2026).
DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j M Y"
