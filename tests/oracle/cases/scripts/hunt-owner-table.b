add table ip own { flags owner; }
add chain ip own c { type filter hook input priority 0; }
list ruleset
list table ip own
