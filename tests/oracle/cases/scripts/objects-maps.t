# object maps: elements hold their objects (use count, EBUSY), delete map and object in one batch
nft add table ip t
nft add counter ip t c1
nft add counter ip t c2 { packets 1 bytes 2 ; }
nft add quota ip t q1 { 1 kbytes ; }
nft add map ip t cm { type ipv4_addr : counter ; elements = { 10.0.0.1 : '"c1"', 10.0.0.2 : '"c2"' } ; }
nft add map ip t qm { type inet_service : quota ; }
nft add element ip t qm { 80 : '"q1"' }
nft add element ip t qm { 81 : '"nope"' }
nft add element ip t qm { 80 : '"q1"' }
nft add element ip t cm { 10.0.0.3 : '"q1"' }
nft list map ip t cm
nft -a list ruleset
nft delete counter ip t c1
nft delete quota ip t q1
nft delete element ip t cm { 10.0.0.1 }
nft delete counter ip t c1
nft delete map ip t qm
nft delete quota ip t q1
nft -f @FILE
nft -a list ruleset
nft delete table ip t
