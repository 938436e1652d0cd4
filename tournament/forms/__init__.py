"""The organiser's forms: an event and its settings (event), players (players), results (results), TRF and sections
(sections); the fields they share (fields), the settings groups (cut_settings, pair_with, rating_report), the file
uploads (files) and one-time form tokens (once)."""
