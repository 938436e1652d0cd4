"""The organiser's forms: an event and its settings (event), players (players), results (results), TRF and sections
(sections); the fields they share (fields), the settings groups (cut_settings, pair_with, rating_report), the file
uploads (files), one-time form tokens (once) and the username rule of the account forms (accounts)."""
