# ip6tables-nft: xtables compat matches that the nfbpf dataplane translates
ip6tables-nft -A INPUT -m state --state ESTABLISHED -j ACCEPT
ip6tables-nft -A INPUT -p ipv6-icmp --icmpv6-type echo-request -j ACCEPT
ip6tables-nft -A INPUT -p ipv6-icmp ! --icmpv6-type 1/3 -j DROP
ip6tables-nft -A INPUT -p udp -m multiport --dports 546,547 -j ACCEPT
ip6tables-nft -A INPUT -m iprange --src-range 2001:db8::1-2001:db8::ff -j DROP
ip6tables-nft -A INPUT -m length --length 0:1280 -j ACCEPT
ip6tables-nft -A INPUT -m comment --comment "v6" -j ACCEPT
ip6tables-nft -A INPUT -m pkttype --pkt-type multicast -j ACCEPT
ip6tables-nft -A INPUT -m hl --hl-gt 1 -j ACCEPT
ip6tables-nft -A INPUT -m dscp --dscp 46 -j ACCEPT
ip6tables-nft -A INPUT -m tos ! --tos Minimize-Delay -j ACCEPT
ip6tables-nft -A INPUT -m hl --hl-eq 255 -j LOG --log-prefix "hl255 "
ip6tables-nft -S
ip6tables-nft -L -n -v
ip6tables-nft-save
nft list ruleset
