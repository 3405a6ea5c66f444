import TickTesting
print("hi")
