# synproxy objects incrementally
nft add table ip t
nft add synproxy ip t sp { mss 1460 ; wscale 7 ; timestamp sack-perm ; }
nft add synproxy ip t sp2 { mss 536 ; wscale 0 ; }
nft list synproxys
nft list synproxy ip t sp
nft add chain ip t c { type filter hook input priority 0 ; }
nft add rule ip t c tcp dport 80 synproxy name sp
nft delete synproxy ip t sp
nft delete synproxy ip t sp2
nft list ruleset
