"""File formats: a CSV roster read (`csv_rosters`), the columns it reads and an export writes (`csv_columns`),
the CSV exports (`csv_exports`). The database as the engines see it is `tournament.snapshot`.

May import models, the engines and `tournament.text`; never views, urls or services.
"""
