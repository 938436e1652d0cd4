"""File formats: CSV in and out (`csvio`). The database as the engines see it is `tournament.snapshot`.

May import models, the engines and `tournament.text`; never views, urls or services.
"""
