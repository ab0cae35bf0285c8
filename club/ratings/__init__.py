"""Player ratings (openskill, Plackett-Luce) across all finished games, and league standings."""
