#!/usr/bin/env bash
# What the test suite needs from the system, installed and started when missing: Debian's Chromium for the browser
# tests, MariaDB on 127.0.0.1:3306 and a ClickHouse server binary for the runner tests, and PostgreSQL 15's binaries
# for the test that keeps Sightline's own data on the oldest PostgreSQL it supports (it starts a throwaway cluster of
# its own; every other PostgreSQL test uses the embedded server), and Debian's slapd for the LDAP sign-in tests (they
# start their own directory on a free port; the one the package starts is stopped and kept from starting again). Installing needs root and apt; without them it says
# what to install and stops.
set -uo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
[ -x /usr/sbin/mariadbd ] || [ -x /usr/sbin/mysqld ] || missing+=(mariadb-server)
command -v clickhouse-server >/dev/null 2>&1 || [ -x /usr/sbin/clickhouse-server ] || missing+=(clickhouse-server)
[ -x "${SIGHTLINE_TEST_PG15_BIN:-/usr/lib/postgresql/15/bin}/postgres" ] || missing+=(postgresql-15)
installing_slapd=false
[ -x /usr/sbin/slapd ] && [ -x /usr/sbin/slapadd ] || { missing+=(slapd); installing_slapd=true; }

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "The tests need these system packages: ${missing[*]} (Debian names). Install them and run again." >&2
    exit 1
  fi
  echo "Installing ${missing[*]} for the tests..."
  timeout 600 apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -qq "${missing[@]}" >/dev/null || exit 1
  if $installing_slapd; then
    # the package starts a directory of its own on port 389: the tests need none, and it should not outlive them
    service slapd stop >/dev/null 2>&1 || true
    update-rc.d slapd disable >/dev/null 2>&1 || true
  fi
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
