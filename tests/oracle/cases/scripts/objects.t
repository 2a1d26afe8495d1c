# named stateful objects: add, list, reset, delete, by handle, in use
nft add table ip t
nft add counter ip t c1
nft add counter ip t c2 { comment '"two"' ; }
nft add quota ip t q1 { over 10 mbytes ; }
nft add quota ip t q2 { 1 kbytes used 0 bytes ; }
nft add limit ip t l1 { rate 10/second ; }
nft add limit ip t l2 { rate over 100 kbytes/second burst 10 kbytes ; }
nft list counters
nft list quotas
nft list limits
nft list counter ip t c1
nft reset counter ip t c1
nft reset counters
nft reset quota ip t q1
nft reset quotas ip
nft -a list ruleset
nft add chain ip t c
nft add rule ip t c counter name c1
nft delete counter ip t c1
nft delete counter ip t handle 2
nft delete quota ip t q1
nft delete limit ip t l2
nft list ruleset
