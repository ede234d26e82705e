#!/usr/bin/env python3
"""Scrapes a Slots host's /metrics every second during a load run and plots the stampede.

  loadtest/metrics_plot.py scrape URL SECONDS OUT.csv   one row per second: time, series, value
  loadtest/metrics_plot.py plot OUT.csv OUT.png          bookings/s by outcome, shed/s, p99 latency, outbox, flush lag
  loadtest/metrics_plot.py stampede URL SECONDS USERS    a small stampede for the picture: USERS at once book the
                                                         first free slots of the busiest places, honouring Retry-After

Only the standard library scrapes; plotting needs matplotlib (Debian: python3-matplotlib).
"""
import csv
import urllib.error
import re
import sys
import time
import urllib.request

LINE = re.compile(r'^(\w+)(?:\{([^}]*)\})? (\S+)$')
LABEL = re.compile(r'(\w+)="([^"]*)"')


def parse(text):
    for line in text.splitlines():
        m = LINE.match(line)
        if m and m.group(1).startswith('slots_'):
            labels = dict(LABEL.findall(m.group(2) or ''))
            labels.pop('otel_scope_name', None)
            yield m.group(1), labels, float(m.group(3))


def scrape(url, seconds, out):
    start = time.time()
    with open(out, 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['t', 'name', 'labels', 'value'])
        while time.time() - start < seconds:
            tick = time.time()
            try:
                text = urllib.request.urlopen(url, timeout=2).read().decode()
            except OSError:
                text = ''
            for name, labels, value in parse(text):
                w.writerow([round(tick - start, 2), name, ';'.join(f'{k}={v}' for k, v in sorted(labels.items())), value])
            time.sleep(max(0, 1 - (time.time() - tick)))


def plot(src, png):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    rows = {}
    for r in csv.DictReader(open(src)):
        rows.setdefault((r['name'], r['labels']), []).append((float(r['t']), float(r['value'])))

    def rate(points):
        return [(b[0], (b[1] - a[1]) / (b[0] - a[0])) for a, b in zip(points, points[1:]) if b[0] > a[0]]

    def labels(key):
        return dict(kv.split('=', 1) for kv in key.split(';') if kv)

    fig, axes = plt.subplots(2, 2, figsize=(12, 7), sharex=True)
    ax = axes[0][0]
    for (name, key), points in sorted(rows.items()):
        if name == 'slots_api_reservations_total' and labels(key).get('operation') == 'reserve':
            t, v = zip(*rate(points)) if len(points) > 1 else ([], [])
            ax.plot(t, v, label=labels(key)['outcome'])
    ax.set_title('bookings/s by outcome')
    ax.legend(fontsize=8)

    ax = axes[0][1]
    for (name, key), points in sorted(rows.items()):
        if name == 'slots_api_shed_total':
            t, v = zip(*rate(points)) if len(points) > 1 else ([], [])
            ax.plot(t, v, label=f"{labels(key)['status']} {labels(key)['reason']}")
    ax.set_title('requests shed/s (429, 503)')
    ax.legend(fontsize=8)

    ax = axes[1][0]
    buckets = {}
    for (name, key), points in rows.items():
        lab = labels(key)
        if name == 'slots_api_reservation_duration_seconds_bucket' and lab.get('operation') == 'reserve':
            for t, v in points:
                buckets.setdefault(t, {}).setdefault(float(lab['le']), 0.0)
                buckets[t][float(lab['le'])] += v
    times = sorted(buckets)
    p99 = []
    for a, b in zip(times, times[1:]):
        delta = sorted((le, buckets[b].get(le, 0) - buckets[a].get(le, 0)) for le in buckets[b])
        total = delta[-1][1] if delta else 0
        p99.append((b, next((le for le, c in delta if c >= 0.99 * total), None) if total > 0 else None))
    pts = [(t, v * 1000) for t, v in p99 if v is not None and v != float('inf')]
    if pts:
        ax.step(*zip(*pts), where='post')
    ax.set_title('p99 reservation handling time (ms, bucket bound)')
    ax.set_xlabel('seconds')

    ax = axes[1][1]
    for series, label in [('slots_sms_outbox_depth', 'outbox depth'), ('slots_scheduler_flush_lag_seconds', 'flush lag (s)')]:
        for (name, key), points in rows.items():
            if name == series:
                ax.plot(*zip(*points), label=label)
    for (name, key), points in rows.items():
        if name == 'slots_sms_sent_total':
            ax.plot(*zip(*rate(points)), label='SMS sent/s', linestyle='--')
    ax.set_title('outbox, flush lag, SMS')
    ax.set_xlabel('seconds')
    ax.legend(fontsize=8)

    fig.suptitle('Slots under a stampede, scraped from /metrics every second')
    fig.tight_layout()
    fig.savefig(png, dpi=90)


def stampede(base, seconds, users):
    import json
    import random
    import threading
    import uuid

    places = [p['id'] for p in json.load(urllib.request.urlopen(f'{base}/api/places?pageSize=3'))['items']]
    slots = []
    for place in places:
        availability = json.load(urllib.request.urlopen(f'{base}/api/places/{place}/availability'))
        for day in availability['days'][1:2]:
            slots += [(place, day['day'], s['time']) for s in day['slots'][:4]]
    end = time.time() + seconds

    def user(n):
        rnd = random.Random(n)
        while time.time() < end:
            place, day, at = rnd.choice(slots)
            body = json.dumps({'placeId': place, 'day': day, 'time': at, 'name': 'Load Test',
                               'phone': f'+42190{rnd.randrange(10**7):07d}', 'nationalId': f'{rnd.randrange(10**10):010d}'}).encode()
            request = urllib.request.Request(f'{base}/api/reservations', body, method='POST', headers={
                'Content-Type': 'application/json', 'Idempotency-Key': str(uuid.UUID(int=rnd.getrandbits(128)))})
            try:
                urllib.request.urlopen(request, timeout=10).read()
            except urllib.error.HTTPError as e:
                if e.code in (429, 503):
                    time.sleep(min(2.0, float(e.headers.get('Retry-After', '1'))))
            except OSError:
                time.sleep(0.5)

    threads = [threading.Thread(target=user, args=(n,)) for n in range(users)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


if __name__ == '__main__':
    if len(sys.argv) == 5 and sys.argv[1] == 'scrape':
        scrape(sys.argv[2], float(sys.argv[3]), sys.argv[4])
    elif len(sys.argv) == 5 and sys.argv[1] == 'stampede':
        stampede(sys.argv[2].rstrip('/'), float(sys.argv[3]), int(sys.argv[4]))
    elif len(sys.argv) == 4 and sys.argv[1] == 'plot':
        plot(sys.argv[2], sys.argv[3])
    else:
        print(__doc__)
        sys.exit(2)
