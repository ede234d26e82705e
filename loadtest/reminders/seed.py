"""Books every seat of one place's day straight into the hot tables (as the hot path would leave them), for loadtest/reminders.sh."""
import sqlite3, sys, time

db_path, place, day = sys.argv[1], int(sys.argv[2]), sys.argv[3]
db = sqlite3.connect(db_path, timeout=60)
seats = db.execute("SELECT start_minute, seat_no, minutes, starts_at FROM hot_seats WHERE place_id = ? AND day = ? AND code IS NULL",
                   (place, day)).fetchall()
now = int(time.time())
rows = []
for i, (minute, seat, minutes, starts) in enumerate(seats):
    code = f"R{i:09d}"
    rows.append((code, minute, seat, minutes, starts, f"seed-person-{i}", f"+42195{i % 10000000:07d}", f"Osoba {i}", "sk" if i % 2 else "en"))
with db:
    db.executemany("UPDATE hot_seats SET code = ? WHERE place_id = ? AND day = ? AND start_minute = ? AND seat_no = ?",
                   [(r[0], place, day, r[1], r[2]) for r in rows])
    db.executemany("""INSERT INTO hot_reservations (code, place_id, day, start_minute, seat_no, minutes, starts_at, person_hash, phone, name, language, created_at)
                      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                   [(r[0], place, day, r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], now) for r in rows])
print(len(rows))
