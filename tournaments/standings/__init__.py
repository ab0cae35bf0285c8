"""Tournament standings: computed rows (StandingRow), their Celery task, selectors and exports."""
