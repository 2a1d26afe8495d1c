# dynset forms: update on a set without timeouts (kernels since 5.15 take it as add), on a counted set
# (packet-added elements get the set's counter), on a timeout set, delete; refusals for interval sets
nft add table ip t
nft add set ip t plain { type ipv4_addr\; flags dynamic\; }
nft add set ip t counted { type inet_service\; flags dynamic\; counter\; }
nft add set ip t timed { type ipv4_addr\; flags dynamic,timeout\; timeout 1m\; }
nft add set ip t ranges { type ipv4_addr\; flags interval\; }
nft add chain ip t c { type filter hook input priority 0\; }
nft add rule ip t c update @plain { ip saddr }
nft add rule ip t c update @counted { udp dport }
nft add rule ip t c update @counted { tcp dport } counter
nft add rule ip t c update @timed { ip saddr timeout 10s }
nft add rule ip t c delete @plain { ip daddr }
nft add rule ip t c update @ranges { ip saddr }
nft add rule ip t c add @ranges { ip saddr }
nft -a list chain ip t c
