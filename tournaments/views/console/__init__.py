"""The organiser console: create, register, seat, run sessions, penalties, publish.

One module per group of pages: `overview` (create, the console's first page, status, publish),
`registrations`, `staff`, `seating`, `sessions` (the session page and its clock), `penalties`;
the results and EMA export pages are `tournaments.views.results`. `base` holds what they share:
who may open the console, the form view every page's forms post to, and how a service's
refusal is shown. Views parse a form, call a service (tournaments.services) or read through
tournaments.selectors, and render; after a write the organiser is back on the page.
"""
