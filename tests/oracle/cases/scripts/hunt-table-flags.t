nft add table ip t { flags dormant\; }
nft add chain ip t c { type filter hook input priority 0\; }
nft list ruleset
nft add table ip t
nft add table ip t { flags dormant\; }
nft add table ip t { comment '"x"'\; }
nft add table ip t { flags owner\; }
nft add table ip u { flags owner\; }
nft add table ip u { flags persist\; }
nft add table ip v { flags owner, persist\; }
nft add table ip w { flags bogus\; }
nft -a list ruleset
nft create table ip t
nft delete table ip t
nft -a list ruleset
nft add table ip t { comment '"a"'\; }
nft add table ip t { comment '"b"'\; }
nft add chain ip t c { comment '"cc"'\; }
nft add chain ip t c { comment '"dd"'\; }
nft add set ip t s { type ipv4_addr\; comment '"s1"'\; }
nft add set ip t s { type ipv4_addr\; comment '"s2"'\; }
nft add set ip t s { type ipv4_addr\; }
nft add set ip t s { type ipv4_addr\; flags interval\; }
nft add set ip t s { type ipv6_addr\; }
nft add counter ip t k { comment '"k1"'\; }
nft add counter ip t k { comment '"k2"'\; }
nft add quota ip t q 10 mbytes
nft add quota ip t q 20 mbytes
nft add quota ip t q over 10 mbytes
nft add limit ip t l rate 10/second
nft add limit ip t l rate 20/second
nft -a list ruleset
