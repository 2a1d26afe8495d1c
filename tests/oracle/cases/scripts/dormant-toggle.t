# waking and sleeping a table with base chains, then deleting it
nft add table inet t
nft add chain inet t c { type filter hook input priority 0 ; }
nft add chain inet t i { type filter hook ingress device veth0 priority 0 ; }
nft add table inet t { flags dormant ; }
nft list table inet t
nft add table inet t { flags dormant ; }
nft add table inet t
nft list table inet t
nft "add table inet t { flags dormant; }; add chain inet t c2 { type filter hook output priority 0; }"
nft list table inet t
nft delete table inet t
nft list ruleset
