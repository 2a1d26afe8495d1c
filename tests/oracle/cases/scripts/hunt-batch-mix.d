delete table ip t
add table ip t
add chain ip t c { type filter hook input priority 0; }
add rule ip t c ip saddr 1.2.3.4 drop
flush ruleset
add table ip u
