# values the kernel rejects: zero rate, bad ct helper, bad log level, huge quotas etc.
nft add table ip t
nft add chain ip t c
nft add rule ip t c limit rate 0/second
nft add rule ip t c limit rate 1/second burst 0 packets
nft add limit ip t l { rate 0/second ; }
nft add ct helper ip t h { type '"nope"' protocol tcp ; }
nft add ct helper ip t h2 { type '"ftp"' protocol udp ; }
nft add rule ip t c log level nope
nft add rule ip t c log group 1 level warn
nft add rule ip t c meta mark set 0x1ffffffff
nft add rule ip t c ip ttl 300
nft add rule ip t c tcp dport 65536
nft add rule ip t c ct zone set 70000
nft list ruleset
