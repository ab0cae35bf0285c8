"""The EMA results file (issue 9) and the ranking preview (MERS weight, base ranks)."""
