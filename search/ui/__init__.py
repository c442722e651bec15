"""The Gradio app: search page, filter sidebar, result cards, thumbs up/down (`app.py` serves it)."""
