"""Bridges to file formats: CSV in and out (`csvio`), and the database to the engines' `swiss-event`
dataclasses and back, TRF included (`eventio`).

May import models, the engines and `tournament.text`; never views, urls or services.
"""
