# Two entry points: `make site` builds public/, `make test` runs every test.
# Each installs what it needs once; stamps make a second run skip the installs.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
CHROMIUM := /usr/bin/chromium
# actionlint checks .github/workflows (tests/test_workflows.py), built from the Go module proxy
ACTIONLINT_VERSION := v1.7.12
ACTIONLINT := $(BIN)/actionlint

.PHONY: site test serve validate schema docs clean deps mariadb lab

deps: $(VENV)/.installed node_modules/.installed

$(VENV)/.installed: pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check --require-hashes -r requirements.lock
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

$(CHROMIUM):
	apt-get update
	apt-get install -y --no-install-recommends chromium

$(ACTIONLINT): | $(VENV)/.installed
	GOBIN=$(abspath $(BIN)) go install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION)

# MariaDB server and sysbench from Debian's packages, for `benchdb capture` and its tests.
mariadb: /usr/bin/sysbench /usr/sbin/mariadbd

/usr/bin/sysbench /usr/sbin/mariadbd:
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends mariadb-server mariadb-client sysbench

# Issue #63's lab (lab/README.md): Debian's cloud kernel under QEMU (TCG) with md RAID, the host's root
# shared read-only; tests/test_lab.py runs RAID 1 fail and rebuild with benchdb capture (4 min, 2 cores)
LAB_TOOLS := /usr/bin/qemu-system-x86_64 /usr/bin/qemu-img /sbin/mdadm /usr/sbin/depmod /bin/busybox

lab: $(VENV)/.installed mariadb $(LAB_TOOLS)
	$(PYTHON) lab/build.py > /dev/null
	BENCHDB_LAB=1 $(BIN)/pytest tests/test_lab.py -v

$(LAB_TOOLS):
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends qemu-system-x86 qemu-utils mdadm kmod busybox-static

site: deps
	$(BIN)/benchdb build
	@echo "Site built: open public/index.html through 'make serve' (http://127.0.0.1:1313/)"

validate: $(VENV)/.installed
	$(BIN)/benchdb validate

schema: $(VENV)/.installed
	$(BIN)/benchdb schema --write

# docs/bundle-format.md and docs/cli.md, generated from the code (tests/test_reference_docs.py checks them)
docs: $(VENV)/.installed
	$(BIN)/benchdb docs --write

# one pytest-xdist worker a core (four at most), a test file a worker at a time: a file's tests share
# their fixtures (a built copy of the project, a browser); the longest files first
# (tests/conftest.py: LONGEST_FIRST), not the files of the most tests
test: deps $(CHROMIUM) mariadb $(ACTIONLINT)
	$(BIN)/pytest -n auto --maxprocesses 4 --dist loadfile --no-loadscope-reorder

serve: deps
	$(BIN)/benchdb build --serve

clean:
	rm -rf public build
