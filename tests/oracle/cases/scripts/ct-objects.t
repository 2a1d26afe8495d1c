# ct helper, timeout and expectation objects incrementally
nft add table inet t
nft add ct helper inet t ftp { type '"ftp"' protocol tcp ; l3proto inet ; }
nft add ct helper inet t sip { type '"sip"' protocol udp ; }
nft add ct helper inet t bogus { type '"nope"' protocol tcp ; }
nft add ct timeout inet t tt { protocol tcp ; l3proto ip ; policy = { established : 100 } ; }
nft add ct expectation inet t ex { protocol tcp ; dport 21 ; timeout 1s ; size 1 ; l3proto ip ; }
nft list ct helpers table inet t
nft list ct helper inet t ftp
nft list ct timeout inet t tt
nft list ct expectation inet t ex
nft add chain inet t c { type filter hook prerouting priority 0 ; }
nft add rule inet t c tcp dport 21 ct helper set '"ftp"'
nft delete ct helper inet t ftp
nft delete ct helper inet t sip
nft delete ct timeout inet t tt
nft delete ct expectation inet t ex
nft list ruleset
