"""Sum pytest's JUnit XML reports into one closing line: "ci: N passed, N failed, N skipped".

    python scripts/junit-total.py REPORT.xml [REPORT.xml ...]

.ci/run prints it last, so the verdict of the whole run (both pytest passes) is one plain line.
Exit status 1 when a report is missing or counts a failure or an error.
"""

import sys
import xml.etree.ElementTree as ET


def main(paths: list[str]) -> int:
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for path in paths:
        root = ET.parse(path).getroot()
        for suite in root.iter("testsuite"):
            for key in totals:
                totals[key] += int(suite.get(key, 0))
    failed = totals["failures"] + totals["errors"]
    passed = totals["tests"] - failed - totals["skipped"]
    print(f"ci: {passed} passed, {failed} failed, {totals['skipped']} skipped")
    return 1 if failed or not totals["tests"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
