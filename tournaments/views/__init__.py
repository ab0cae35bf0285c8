"""Tournament web pages: public pages, the organiser console and PDF downloads."""
