"""The Hugging Face Hub as a place for indexes and votes: `hf://` addresses, publishing an
index with its dataset card, and the scheduled push of votes (search/feedback/hub_sync.py)."""
