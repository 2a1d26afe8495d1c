nft add table ip t
nft add counter ip t cnt packets 10 bytes 100
nft add quota ip t q over 100 mbytes used 10 mbytes
nft add chain ip t c
nft add rule ip t c counter packets 5 bytes 50
nft add rule ip t c quota 1 mbytes used 100 kbytes
nft list ruleset
nft reset counter ip t cnt
nft reset quota ip t q
nft list ruleset
nft add counter ip t cnt2 packets 10 bytes 100
nft reset counters
nft reset counters table ip t
nft reset quotas ip
nft reset rules ip t c
nft reset rules
nft reset rule ip t c handle 4
nft reset counter ip t nope
nft -a list ruleset
