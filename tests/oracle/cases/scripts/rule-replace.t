# replace rule by handle keeps position and handle; unknown handle fails
nft add table inet t
nft add chain inet t c
nft add rule inet t c tcp dport 22 accept
nft add rule inet t c tcp dport 80 accept
nft add rule inet t c tcp dport 443 accept
nft replace rule inet t c handle 3 tcp dport 8080 counter accept comment '"replaced"'
nft replace rule inet t c handle 2 udp dport 53 drop
nft -a list chain inet t c
nft replace rule inet t c handle 99 drop
nft replace rule inet t c handle 1 drop
nft -a list ruleset
