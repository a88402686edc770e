"""1882 Assiniboia (All-Aboard Games)."""
