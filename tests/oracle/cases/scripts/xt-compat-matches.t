# iptables-nft: xtables compat matches that the nfbpf dataplane translates
iptables-nft -A INPUT -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT
iptables-nft -A INPUT -m state --state INVALID -j DROP
iptables-nft -A INPUT -m conntrack ! --ctstate NEW,UNTRACKED -j ACCEPT
iptables-nft -A INPUT -m conntrack --ctstate DNAT -j ACCEPT
iptables-nft -A INPUT -p tcp -m multiport --dports 80,443,8000:8080 -j ACCEPT
iptables-nft -A INPUT -p udp -m multiport --sports 53,123 -j ACCEPT
iptables-nft -A INPUT -p tcp -m multiport ! --ports 22,23 -j DROP
iptables-nft -A INPUT -m comment --comment "a comment" -j ACCEPT
iptables-nft -A INPUT -p icmp --icmp-type echo-request -j ACCEPT
iptables-nft -A INPUT -p icmp ! --icmp-type 3/4 -j DROP
iptables-nft -A INPUT -p icmp --icmp-type any -j ACCEPT
iptables-nft -A INPUT -m iprange --src-range 10.0.0.1-10.0.0.9 -j DROP
iptables-nft -A INPUT -m iprange ! --dst-range 10.1.0.0-10.1.255.255 -j ACCEPT
iptables-nft -A INPUT -m pkttype --pkt-type broadcast -j DROP
iptables-nft -A INPUT -m pkttype ! --pkt-type unicast -j DROP
iptables-nft -A INPUT -m length --length 1000:1500 -j ACCEPT
iptables-nft -A INPUT -m length ! --length 64 -j ACCEPT
iptables-nft -A INPUT -p tcp --tcp-flags SYN,RST SYN -m comment --comment syn -j ACCEPT
iptables-nft -A INPUT -m ttl --ttl-lt 5 -j DROP
iptables-nft -A INPUT -m ttl ! --ttl-eq 64 -j ACCEPT
iptables-nft -A INPUT -m dscp --dscp 10 -j ACCEPT
iptables-nft -A INPUT -m dscp ! --dscp-class EF -j ACCEPT
iptables-nft -A INPUT -m tos --tos 0x10/0x3f -j ACCEPT
iptables-nft -A INPUT -p tcp --dport 23 -j LOG --log-prefix "telnet: " --log-level 6
iptables-nft -A INPUT -j LOG --log-tcp-sequence --log-tcp-options --log-ip-options --log-uid --log-macdecode
iptables-nft -N SVC
iptables-nft -A SVC -m comment --comment "in a user chain" -j RETURN
iptables-nft -A INPUT -m comment --comment "to SVC" -j SVC
iptables-nft -I INPUT 2 -m mark --mark 0x1/0xff -j ACCEPT
iptables-nft -D INPUT -m comment --comment "a comment" -j ACCEPT
iptables-nft -C INPUT -p icmp --icmp-type echo-request -j ACCEPT
iptables-nft -C INPUT -p icmp --icmp-type echo-reply -j ACCEPT
iptables-nft -R INPUT 1 -p tcp -m multiport --dports 1:1024 -j ACCEPT
iptables-nft -S
iptables-nft -L -n -v
iptables-nft -L INPUT -n --line-numbers
iptables-nft-save
