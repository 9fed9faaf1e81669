#!/usr/bin/env bash
# What the test suite needs from the system, installed and started when missing: Debian's Chromium for the browser
# tests, MariaDB on 127.0.0.1:3306 and ClickHouse, Prometheus and InfluxDB server binaries for the runner tests (the
# tests start their own Prometheus and influxd on free ports, so the packages' own services are kept from starting),
# PostgreSQL 15's binaries for the test that keeps Sightline's own data on the oldest PostgreSQL it supports (it
# starts a throwaway cluster of its own; every other PostgreSQL test uses the embedded server), and slapd for the LDAP
# sign-in tests (they start their own directory on a free port). Installing needs root
# and apt; without them it says what to install and stops.
set -uo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
[ -x /usr/sbin/mariadbd ] || [ -x /usr/sbin/mysqld ] || missing+=(mariadb-server)
command -v clickhouse-server >/dev/null 2>&1 || [ -x /usr/sbin/clickhouse-server ] || missing+=(clickhouse-server)
[ -x "${SIGHTLINE_TEST_PG15_BIN:-/usr/lib/postgresql/15/bin}/postgres" ] || missing+=(postgresql-15)
# binaries only: their services would hold :9090, :8086, :8088 and :389, and their recommends add exporters
engines=()
[ -x /usr/bin/prometheus ] || engines+=(prometheus)
[ -x /usr/bin/influxd ] || engines+=(influxdb)
[ -x /usr/sbin/slapd ] && [ -x /usr/sbin/slapadd ] || engines+=(slapd)

if [ $((${#missing[@]} + ${#engines[@]})) -gt 0 ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "The tests need these system packages: ${missing[*]} ${engines[*]} (Debian names). Install them and run again." >&2
    exit 1
  fi
  echo "Installing ${missing[*]} ${engines[*]} for the tests..."
  timeout 600 apt-get update -qq || exit 1
  if [ ${#missing[@]} -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -qq "${missing[@]}" >/dev/null || exit 1
  fi
fi

if [ ${#engines[@]} -gt 0 ]; then
  # policy-rc.d answering 101 keeps the packages' scripts from starting the services (systemd's too)
  policy=/usr/sbin/policy-rc.d
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && trap 'rm -f "$policy"' EXIT
  fi
  DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -qq --no-install-recommends "${engines[@]}" >/dev/null || exit 1
  for service in "${engines[@]}"; do
    if [ -d /run/systemd/system ]; then
      systemctl disable --now "$service" >/dev/null 2>&1 || true
    elif command -v update-rc.d >/dev/null 2>&1; then
      update-rc.d "$service" disable >/dev/null 2>&1 || true
    fi
  done
fi

mysql_up() { mysqladmin --protocol=tcp -h127.0.0.1 -P3306 -uroot ping >/dev/null 2>&1; }
if ! mysql_up; then
  if [ "$(id -u)" != 0 ]; then
    echo "MariaDB is installed but not answering on 127.0.0.1:3306 (user root, empty password); start it and run again." >&2
    exit 1
  fi
  mkdir -p /run/mysqld && chown mysql:mysql /run/mysqld
  daemon=/usr/sbin/mariadbd; [ -x "$daemon" ] || daemon=/usr/sbin/mysqld
  start-stop-daemon --start --oknodo --background --exec "$daemon" -- --user=mysql --bind-address=127.0.0.1 --port=3306
  for _ in $(seq 1 120); do mysqladmin ping >/dev/null 2>&1 && break; sleep 0.5; done
  mysql -uroot -e "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY ''; GRANT ALL ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION" || true
  mysql_up || { echo "MariaDB did not answer on 127.0.0.1:3306" >&2; exit 1; }
fi
