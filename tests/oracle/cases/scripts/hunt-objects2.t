nft add table inet t
nft add counter inet t k
nft add quota inet t q over 1 gbytes used 10 mbytes
nft add limit inet t l rate over 100/minute burst 10 packets
nft add limit inet t lb rate 1 mbytes/second
nft add ct helper inet t h { type '"ftp"' protocol tcp\; }
nft add ct timeout inet t tt { protocol tcp\; policy = { established: 100 }\; }
nft add ct expectation inet t e { protocol tcp\; dport 21\; timeout 1m\; size 10\; }
nft add chain inet t c
nft add rule inet t c counter name k
nft add rule inet t c quota name q
nft add rule inet t c limit name l
nft add map inet t om { type ipv4_addr : counter\; elements = { 1.1.1.1 : k }\; }
nft add rule inet t c counter name ip saddr map @om
nft add rule inet t c counter name ip saddr map { 2.2.2.2 : k }
nft delete counter inet t k
nft delete quota inet t q
nft delete limit inet t l
nft delete counter inet t handle 99
nft delete ct helper inet t h
nft -a list ruleset
nft list counter inet t k
nft -j list counters
nft reset counter inet t k
nft reset quota inet t q
nft -j reset quotas
nft list limits
nft flush chain inet t c
nft delete map inet t om
nft delete counter inet t k
nft delete counter inet t handle 2
nft -a list ruleset
nft add counter inet t k { comment '"kc"'\; }
nft add counter inet t k
nft create counter inet t k
nft add quota inet t q 2 gbytes
nft add limit inet t l rate 5/second
nft -a list ruleset
