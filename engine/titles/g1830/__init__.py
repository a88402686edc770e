"""1830 Railways & Robber Barons."""
