# limit and quota values the kernel refuses past nft's own checks
# (nft_limit_init overflow checks: EOVERFLOW)
nft add table ip t
nft add chain ip t c
nft add rule ip t c limit rate 1 mbytes/day
nft add rule ip t c limit rate 1/week burst 100000000 packets
nft add rule ip t c limit rate over 1 kbytes/week burst 1 mbytes
nft add rule ip t c limit rate 18446744073709551615/second
nft add rule ip t c counter limit rate 1 mbytes/hour accept
nft add rule ip t c quota 9223372036854775808 bytes
nft add rule ip t c quota 10 bytes used 11 bytes
nft add rule ip t c limit rate 1 kbytes/day
nft list ruleset
