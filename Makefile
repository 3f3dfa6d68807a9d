# Build and install the five tools as Unix tools are installed.
#
#   make                              release build, Swift runtime linked in
#   sudo make install                 into /usr/local (PREFIX), no rebuild as root
#   make install PREFIX=$HOME/.local  into your home, building first if needed
#   make uninstall PREFIX=…           removes exactly what install put there
#
# DESTDIR stages an install for a package (everything lands under
# $(DESTDIR)$(PREFIX)). The binaries carry the Swift standard library
# (--static-swift-stdlib) and only need the C library, so upgrading or moving
# the toolchain does not break them; the installed copy is stripped, and
# linked under the five names (see MAIN).
#
# BUILD_DIR names the folder the binaries are taken from (default: the
# release build's); the test suite installs its debug build that way
# (make install BUILD_DIR=.build/debug SWIFT=false: nothing is built).

PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR     ?= $(PREFIX)/bin
MANDIR     ?= $(PREFIX)/share/man/man1
BASHDIR    ?= $(PREFIX)/share/bash-completion/completions
ZSHDIR     ?= $(PREFIX)/share/zsh/site-functions
FISHDIR    ?= $(PREFIX)/share/fish/vendor_completions.d
# systemd's folder for user units: tenclub-watch.service (`systemctl --user
# enable --now tenclub-watch` counts unlocks on GNOME, KDE and logind).
UNITDIR    ?= $(PREFIX)/lib/systemd/user

SWIFT      ?= swift
CONFIG     ?= release
# On macOS the Swift runtime is part of the system.
ifeq ($(shell uname -s),Darwin)
SWIFTFLAGS ?=
else
SWIFTFLAGS ?= --static-swift-stdlib
endif
BUILD_DIR  ?= .build/$(CONFIG)
INSTALL    ?= install
STRIP      ?= strip

TOOLS = tenclub yomo rewards playa habitmatch
# Each executable holds all five tools and acts as the one it is called by,
# so one stripped file is installed under five names (hard links): a fifth
# of the size, the same start-up.
MAIN  = tenclub
BIN   = $(BUILD_DIR)/$(MAIN)

.PHONY: all build install uninstall clean check

all: build

# swift build is incremental: `make` always asks it. Only the one product
# (the test targets need XCTest, which has no static library).
build:
	$(SWIFT) build -c $(CONFIG) $(SWIFTFLAGS) --product $(MAIN)

# Only when the binary is missing (so `sudo make install` after `make` does
# not build as root).
$(BIN):
	$(SWIFT) build -c $(CONFIG) $(SWIFTFLAGS) --product $(MAIN)

install: $(BIN)
	$(INSTALL) -d '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(MANDIR)' '$(DESTDIR)$(BASHDIR)' \
		'$(DESTDIR)$(ZSHDIR)' '$(DESTDIR)$(FISHDIR)'
	$(INSTALL) -m 755 '$(BUILD_DIR)/$(MAIN)' '$(DESTDIR)$(BINDIR)/$(MAIN)'
	$(STRIP) '$(DESTDIR)$(BINDIR)/$(MAIN)'
	for t in $(TOOLS); do \
		if [ $$t != $(MAIN) ]; then ln -f '$(DESTDIR)$(BINDIR)/$(MAIN)' '$(DESTDIR)$(BINDIR)'/$$t || exit 1; fi; \
		$(INSTALL) -m 644 man/$$t.1 '$(DESTDIR)$(MANDIR)'/$$t.1 && \
		$(INSTALL) -m 644 completions/$$t.bash '$(DESTDIR)$(BASHDIR)'/$$t && \
		$(INSTALL) -m 644 completions/_$$t '$(DESTDIR)$(ZSHDIR)'/_$$t && \
		$(INSTALL) -m 644 completions/$$t.fish '$(DESTDIR)$(FISHDIR)'/$$t.fish || exit 1; \
	done
	$(INSTALL) -d '$(DESTDIR)$(UNITDIR)'
	printf '%s\n' '[Unit]' 'Description=Count screen unlocks for tenclub (GNOME, KDE, logind over D-Bus)' \
		'Documentation=man:tenclub(1)' 'PartOf=graphical-session.target' 'After=graphical-session.target' '' \
		'[Service]' 'ExecStart=$(BINDIR)/tenclub watch -q' 'Restart=on-failure' 'RestartSec=5' '' \
		'[Install]' 'WantedBy=graphical-session.target' > '$(DESTDIR)$(UNITDIR)/tenclub-watch.service'
	chmod 644 '$(DESTDIR)$(UNITDIR)/tenclub-watch.service'

uninstall:
	for t in $(TOOLS); do \
		rm -f '$(DESTDIR)$(BINDIR)'/$$t '$(DESTDIR)$(MANDIR)'/$$t.1 '$(DESTDIR)$(BASHDIR)'/$$t \
			'$(DESTDIR)$(ZSHDIR)'/_$$t '$(DESTDIR)$(FISHDIR)'/$$t.fish; \
	done
	rm -f '$(DESTDIR)$(UNITDIR)/tenclub-watch.service'

check:
	$(SWIFT) test

clean:
	$(SWIFT) package clean
