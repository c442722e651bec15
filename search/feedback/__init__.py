"""Thumbs up / down on results: a durable vote store and its export as relevance labels."""
