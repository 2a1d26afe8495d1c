# every stateful object type without rules: add, update, list, reset, delete by name and handle
nft add table inet t
nft add counter inet t c { packets 5 bytes 10 ; comment '"five"' ; }
nft add quota inet t q { over 10 mbytes used 5 bytes ; }
nft add quota inet t q0 { 0 bytes ; }
nft add limit inet t l { rate over 10/second burst 3 packets ; }
nft add limit inet t lb { rate 100 kbytes/second burst 10 kbytes ; }
nft add ct helper inet t h { type '"ftp"' protocol tcp ; }
nft add ct helper inet t h4 { type '"irc"' protocol tcp ; l3proto ip ; }
nft add ct helper inet t h6 { type '"sip"' protocol udp ; l3proto ip6 ; }
nft add ct timeout inet t tt { protocol tcp ; l3proto ip ; policy = { established : 100, close : 5 } ; }
nft add ct timeout inet t tu { protocol udp ; policy = { replied : 60 } ; }
nft add ct expectation inet t ex { protocol tcp ; dport 21 ; timeout 1s ; size 1 ; l3proto ip ; }
nft add synproxy inet t sp { mss 1460 ; wscale 7 ; timestamp sack-perm ; }
nft add counter inet t q
nft list counters
nft list quotas
nft list limits
nft list ct helpers table inet t
nft list ct timeout inet t tt
nft list ct expectation inet t ex
nft list synproxys
nft list counter inet t c
nft list quota inet t q0
# updates: quota and synproxy change, the others stay as they are
nft add quota inet t q { 20 mbytes used 1 bytes ; }
nft add synproxy inet t sp { mss 536 ; wscale 0 ; }
nft add counter inet t c { packets 9 bytes 9 ; }
nft add limit inet t l { rate 1/minute ; }
nft add ct helper inet t h { type '"sip"' protocol udp ; }
nft create counter inet t c
nft create quota inet t q { 1 bytes ; }
nft -a list ruleset
nft reset counter inet t c
nft reset quotas
nft reset counters
nft list ruleset
nft delete counter inet t c
nft delete counter inet t c
nft delete quota inet t handle 3
nft delete quota inet t handle 3
nft delete limit inet t handle 99
nft delete ct helper inet t h4
nft delete ct timeout inet t tu
nft delete ct expectation inet t ex
nft delete synproxy inet t sp
nft -a list ruleset
nft delete table inet t
nft list ruleset
